% EXPECT: 1 ^tests/errors/cell_bounds\.q:4:1: runtime error: index 3 is out of bounds for dimension 0 of a cell array of size \[3\]
c = cell(3)
c[2] = 1
c[3] = 2
