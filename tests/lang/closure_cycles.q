% Closures that leave the frame they close over while that frame still holds them: an event
% object whose callbacks read it (lib/Quasar.UI.q's events), a closure stored in an object
% or a cell array of its own frame, a nested function's closure (two frames in the cycle).
% Each is a reference cycle; the interpreter's cycle collector (src/interp/interp_cycles.c)
% frees them once nothing outside holds them: after every 1000 frames that outlived their
% call, and at the end. `make asan` reported every one of them as a leak before (finding 23
% in docs/reliability.md). Here: thousands of them (several collections while the program
% runs), and closures that stay reachable keep working, seeing the current values of the
% variables and fields they read, after those collections.

% an event: add keeps a callback, fire calls them all; both closures read ev (a cycle)
function ev = event()
    ev = object()
    ev.callbacks = cell(0)
    ev.count = 0
    ev.add = (cb) -> event_add(ev, cb)
    ev.fire = () -> event_fire(ev)
endfunction

function n = event_add(ev, cb)
    c = cell(ev.count + 1)
    for i = 0..ev.count-1
        c[i] = ev.callbacks[i]
    end
    c[ev.count] = cb
    ev.callbacks = c
    ev.count += 1
    n = ev.count
endfunction

function n = event_fire(ev)
    n = 0
    for i = 0..ev.count-1
        f = ev.callbacks[i]
        f()
        n += 1
    end
endfunction

% a counter whose closure is kept in an object of its own frame, and returned
function [get, state] = make_counter(start)
    state = object()
    state.n = start
    step = 1
    state.inc = () -> (state.n += step; state.n)
    get = () -> state.n * 1000 + step
    step = 2                     % the closures read the variable, not a copy
endfunction

% a nested function's closure: its frame and the enclosing one are both in the cycle
function o = outer(x)
    o = object()
    o.base = 1
    function [] = attach()
        o.get = () -> x + o.base
    endfunction
    attach()
endfunction

% a closure kept in a cell array of its frame, which the caller keeps too
function c = self_cell(v)
    c = cell(2)
    c[0] = v
    c[1] = () -> c[0] * 2
endfunction

function [] = main()
    % events made and dropped: about 6000 frames in cycles, several collections
    fired = object()
    fired.n = 0
    total = 0
    for i = 0..1999
        ev = event()
        ev.add(() -> (fired.n += 1;))
        ev.add(() -> (fired.n += i;))
        total += ev.fire()
    end
    want = 0
    for i = 0..1999
        want += 1 + i
    end
    assert(total == 4000 && fired.n == want)

    % counters kept across those collections (and the ones below) stay whole
    keep = cell(40)
    states = cell(40)
    for i = 0..39
        [g, s] = make_counter(i)
        keep[i] = g
        states[i] = s
    end
    for i = 0..2999
        o = outer(i)
        assert(o.get() == i + 1)
        c = self_cell(i)
        f = c[1]
        assert(f() == 2 * i)
    end
    for i = 0..39
        s = states[i]
        assert(s.inc() == i + 2 && s.inc() == i + 4)
        g = keep[i]
        assert(g() == (i + 4) * 1000 + 2)
        s.n = -i
        assert(g() == -i * 1000 + 2)
    end

    % a kept nested closure: both of its frames stay
    o = outer(7)
    for i = 0..1499
        e = event()
        e.add(() -> i)
    end
    o.base = 100
    assert(o.get() == 107)
    print "closure_cycles: ok"
endfunction
