% How objects, cell arrays and nullptr print (docs/language.md, "Classes and cell arrays").
type point : mutable class
    x : int
    y : scalar = 0.5
    tag : string
end
type node : class
    val : int
    next : ^node
end
p = point(x:=1, tag:="a")
print p
print node(val:=1, next:=node(val:=2))
print nullptr
c = cell(3)
print c
c[0] = [1, 2]
c[1] = "s"
c[2] = p
print c
o = object()
o.n = 3
print o
print numel(c), " ", size(cell(2, 2))
