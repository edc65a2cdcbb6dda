% EXPECT: 1 ^tests/errors/class_field_declared_twice\.q:4:5: error: field 'x' of class 'point' is declared twice
type point : mutable class
    x : int
    x : scalar
end
