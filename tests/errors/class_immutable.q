% EXPECT: 1 ^tests/errors/class_immutable\.q:8:1: runtime error: cannot assign field 'a': class 'frozen' is immutable
% `type p : class` (without `mutable`) makes objects whose fields are set once, at construction.
type frozen : class
    a : int
end
f = frozen(a:=1)
print f.a
f.a = 2
