% A lambda kept in a variable of the function whose names it reads holds that function's
% frame, which holds the lambda (a cycle): when the call ends it is freed (make asan's leak
% check fails otherwise), but only when nothing else holds the lambda. Returned, stored in
% an object or copied to a second variable, it still sees the frame's values.
function y = local_only(x)
    k = 3
    g = (t) -> t * k + x          % reads k and x: a closure over this frame
    h = g                         % the same closure in two slots
    y = g(1) + h(2)
end

function g = returned(x)
    k = 10
    g = (t) -> t + k + x          % kept in a slot AND returned: the frame must stay
    unused = g(0)
end

function [] = stored(o, x)
    k = 100
    f = (t) -> t + k + x
    o.cb = f                      % held by an object too: the frame must stay
end

function [] = main()
    total = 0
    for i = 0..199
        total += local_only(i)
    end
    want = 0
    for i = 0..199
        want += (1 * 3 + i) + (2 * 3 + i)
    end
    assert(total == want)
    r = returned(5)
    assert(r(1) == 16 && r(2) == 17)
    o = object()
    stored(o, 7)
    assert(o.cb(1) == 108)
    print "closure_frame_cycle: ok"
end
