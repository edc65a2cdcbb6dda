% import "file.q" loads the functions of another file; the path is relative to the
% importing file's folder.
import "lib/mathutil.q"

assert(cube_of(3) == 27)
assert(cube_of(-2) == -8)
x = 0..9
y = ones(10) * -1
parallel_do(10, x, y, square_kernel)
for i = 0..9
    assert(y[i] == i * i)
endfor
print "import_module: ok"
