% A lambda kept in a variable of the function whose names it reads holds that function's
% frame, which holds the lambda (a cycle): when the call ends and nothing else holds the
% lambda, both are freed (make asan's leak check failed before, in tests/lang/classes.q).
% A lambda that leaves its function (returned, stored in an object) keeps the frame alive:
% tests/lang/closures_lambdas.q checks that it still sees them (that cycle is not collected
% yet: docs/reliability.md).
function y = local_only(x)
    k = 3
    g = (t) -> t * k + x          % reads k and x: a closure over this frame
    h = g                         % the same closure in two slots
    y = g(1) + h(2)
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
    print "closure_frame_cycle: ok"
end
