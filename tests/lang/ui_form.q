% Quasar.UI.dll headless (lib/Quasar.UI.q, docs/library.md "Forms"), written as published
% tone-mapping tools write it: a form, sliders, check boxes, buttons, headings and
% callbacks that update a parameter object. Without a screen nobody moves a control: each
% keeps its initial value, callbacks are stored and not called, a `while !frm.closed()`
% loop runs once; ev.fire() runs the stored callbacks as a user's change would.
import "Quasar.UI.dll"

% 0.18 middle gray: the anchors b and c follow a and d (a plain function of the object)
function [] = updateBC(t : object)
    t.b = (t.hdrMax^t.a * t.midOut - t.midIn^t.a) / ((t.hdrMax^(t.a*t.d) - t.midIn^(t.a*t.d)) * t.midOut)
    t.c = t.hdrMax^(t.a*t.d) * t.midIn^t.a - t.hdrMax^t.a * t.midIn^(t.a*t.d) * t.midOut
endfunction

function [] = main()
    frm = form("TMO")
    frm.width = 600
    frm.height = 800
    frm.center()

    tmo_params = object()
    tmo_params.a = 1.3 % Contrast
    tmo_params.d = 0.995  % Shoulder
    tmo_params.midIn = 0.18;
    tmo_params.midOut = 0.18;
    tmo_params.hdrMax = 0.18*2^14;
    updateBC(tmo_params);
    b0 = tmo_params.b

    frm.add_heading("Color grading params")
    slider_a = frm.add_slider("a", tmo_params.a, 0.0, 10.0)
    slider_d = frm.add_slider("d", tmo_params.d, 0.0, 10.0)
    cb_add = frm.add_checkbox("Enhance by addition: ", true)
    cb_mult = frm.add_checkbox("Enhance by multiplying", false)
    button_stop = frm.add_button("Stop")
    vidstate = object()
    vidstate.is_playing = true
    calls = object()
    calls.n = 0

    slider_a.onchange.add(()-> (tmo_params.a = slider_a.value;
                                updateBC(tmo_params);
                                calls.n += 1))
    slider_d.onchange.add(()-> (tmo_params.d = slider_d.value;))
    cb_add.onchange.add(()-> (cb_mult.value = !(cb_add.value));)
    cb_mult.onchange.add(()-> (cb_add.value = !(cb_mult.value));)
    button_stop.onclick.add(() -> vidstate.is_playing = false)
    button_stop.text = "Dark"

    % headless: initial values, nothing called
    assert(slider_a.value == 1.3 && slider_a.min == 0 && slider_a.max == 10)
    assert(slider_d.value == 0.995 && slider_d.label == "d")
    assert(cb_add.value && !cb_mult.value && button_stop.text == "Dark")
    assert(calls.n == 0 && vidstate.is_playing && tmo_params.b == b0)
    assert(numel(frm.controls) == 6 && frm.width == 600 && frm.title == "TMO")

    frames = 0
    while !frm.closed()
        frames += 1
    end
    assert(frames == 1)
    assert(frm.closed())

    % a change the program makes, then the callbacks as a user's change would run them
    slider_a.value = 2.0
    assert(slider_a.onchange.fire() == 1)
    assert(tmo_params.a == 2.0 && calls.n == 1)
    t = object()
    [t.a, t.d, t.midIn, t.midOut, t.hdrMax] = [2.0, 0.995, 0.18, 0.18, 0.18*2^14]
    updateBC(t)
    assert(abs(tmo_params.b - t.b) <= 1e-12 * abs(t.b) && tmo_params.b != b0)
    cb_add.value = false
    cb_add.onchange.fire()
    assert(cb_mult.value)
    button_stop.onclick.fire()
    assert(!vidstate.is_playing)
    % two callbacks on one event run in the order they were added
    order = object()
    order.s = ""
    slider_d.onchange.add(() -> (order.s = order.s + "b";))
    slider_d.onchange.add(() -> (order.s = order.s + "c";))
    slider_d.value = 3
    assert(slider_d.onchange.fire() == 3)
    assert(order.s == "bc" && tmo_params.d == 3)
    frm.wait()
    print "ui_form: ok"
endfunction
