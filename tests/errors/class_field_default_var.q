% EXPECT: 1 ^tests/errors/class_field_default_var\.q:(4|5):[0-9]+: error: (unknown name 'k'|the default values)
k = 3
type point : mutable class
    x : int = k
end
p = point()
