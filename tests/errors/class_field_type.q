% EXPECT: 1 ^tests/errors/class_field_type\.q:5:(11|12|13|14|15|16): runtime error: .*field 'x' of 'point'.*
type point : mutable class
    x : int
end
p = point(x:="one")
