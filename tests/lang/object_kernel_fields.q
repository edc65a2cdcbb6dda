% Objects in published code hold the arrays kernels work on (issue 21, items 4 and 6):
% `parallel_do(size(p.img), p.img, k)` passes an object's array field to a kernel, the
% kernel's writes land in the object's array, and objects go through functions and come
% back (params objects of tone-mapping tools). Checked against plain host loops.
type frame : mutable class
    img : mat
    gain : scalar = 2.0
end

function [] = __kernel__ scale_kernel(x : mat'unchecked, y : mat'unchecked, g : scalar, pos : ivec2)
    y[pos] = g * x[pos]
end

function [] = __kernel__ add_one(y : mat'unchecked, pos : ivec2)
    y[pos] += 1
end

% takes an object, launches on its fields, returns a new object holding the result
function out = scaled(f : frame)
    out = frame(img:=zeros(size(f.img)), gain:=f.gain)
    parallel_do(size(f.img), f.img, out.img, f.gain, scale_kernel)
end

function [] = brighten(p : object)
    parallel_do(size(p.img), p.img, add_one)
end

function [] = main()
    h = 5
    w = 7
    x = zeros(h, w)
    for i = 0..h-1
        for j = 0..w-1
            x[i, j] = i * w + j
        end
    end
    f = frame(img:=copy(x), gain:=1.5)
    g = scaled(f)
    for i = 0..h-1
        for j = 0..w-1
            assert(g.img[i, j] == 1.5 * x[i, j])
        end
    end
    % a kernel writing into a field of an object passed to a function: the caller sees it
    p = object()
    p.img = copy(x)
    brighten(p)
    brighten(p)
    for i = 0..h-1
        for j = 0..w-1
            assert(p.img[i, j] == x[i, j] + 2)
        end
    end
    % in place on the class object's field, then read back through the object
    parallel_do(size(f.img), f.img, add_one)
    assert(sum(f.img) == sum(x) + h * w)
    % a cell array's element is an array too
    c = cell(2)
    c[1] = copy(x)
    parallel_do(size(c[1]), c[1], add_one)
    assert(sum(c[1]) == sum(x) + h * w)
    print "object_kernel_fields: ok"
end
