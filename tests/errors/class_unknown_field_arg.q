% EXPECT: 1 ^tests/errors/class_unknown_field_arg\.q:5:(11|12): runtime error: class 'point' has no field 'z'
type point : mutable class
    x : int
end
p = point(z:=1)
