% EXPECT: 1 ^tests/errors/cell_operator\.q:3:(7|9): runtime error: .*cell array
c = cell(2)
d = c + 1
