% EXPECT: 1 ^tests/errors/class_no_field\.q:7:(7|8): runtime error: class 'point' has no field 'z'
type point : mutable class
    x : int
    y : int
end
p = point(x:=1, y:=2)
print p.z
