% Quasar.UI.q: Quasar's native user-interface module, headless (docs/library.md, "Forms").
% import "Quasar.UI.dll" loads this file from OpenQuasar's lib/ folder.
%
% OpenQuasar draws no forms: a form and its controls are ordinary objects (object()) whose
% methods are function-valued fields, so published tone-mapping tools run unchanged
% without a screen. Nobody moves a slider, so every control keeps the value it was made
% with (or the one the program assigns); callbacks given to .onchange.add / .onclick.add
% are stored and never called by the form (ev.fire() calls them, for tests). A display's
% imshow, plot and subplot are the built-ins (windows or PNG files, docs/images.md).
% The signatures follow published programs: form("title"),
% add_slider("label", value, min, max), add_checkbox("label", value), add_button("label"),
% add_heading("text"), add_display(), h.connect(h2), frm.wait(), frm.closed().

% An event (.onchange, .onclick): add(callback) keeps the callback; fire() calls them all.
function ev = ui_event()
    ev = object()
    ev.handlers = cell(0)
    ev.add = (callback) -> ui_event_add(ev, callback)
    ev.fire = () -> ui_event_fire(ev)
endfunction

% Appends callback to ev.handlers (cell arrays have a fixed length: a longer copy).
function n = ui_event_add(ev, callback)
    n = numel(ev.handlers)
    grown = cell(n + 1)
    for i = 0..n-1
        grown[i] = ev.handlers[i]
    endfor
    grown[n] = callback
    ev.handlers = grown
    n = n + 1
endfunction

% Calls the stored callbacks in the order they were added; returns how many ran.
function n = ui_event_fire(ev)
    n = numel(ev.handlers)
    for i = 0..n-1
        callback = ev.handlers[i]
        callback()
    endfor
endfunction

% The fields every control has: its kind, its label and an onchange event.
function ctl = ui_control(kind : string, label : string)
    ctl = object()
    ctl.kind = kind
    ctl.label = label
    ctl.text = label
    ctl.visible = true
    ctl.enabled = true
    ctl.onchange = ui_event()
endfunction

function ctl = ui_slider(label : string, value = 0, lo = 0, hi = 1)
    if !isscalar(value) || !isscalar(lo) || !isscalar(hi)
        error("add_slider(label, value, min, max): value, min and max must be numbers")
    endif
    if lo > hi
        error("add_slider: the minimum ", lo, " is above the maximum ", hi)
    endif
    ctl = ui_control("slider", label)
    ctl.value = value
    ctl.min = lo
    ctl.max = hi
endfunction

function ctl = ui_checkbox(label : string, value = false)
    ctl = ui_control("checkbox", label)
    ctl.value = value
endfunction

function ctl = ui_button(label : string = "")
    ctl = ui_control("button", label)
    ctl.onclick = ui_event()
    ctl.icon = []
endfunction

function ctl = ui_heading(label : string = "")
    ctl = ui_control("heading", label)
endfunction

% An image handle returned by a display's imshow: connect() links zooming in Quasar;
% headless there is nothing to link, so it only records the partner.
function h = ui_image_handle()
    h = object()
    h.connected = cell(0)
    h.connect = (other) -> ui_connect(h, other)
    h.rasterize = () -> ui_not_provided("rasterize")
endfunction

% A method of Quasar.UI.dll that needs a screen: a clear error naming the module.
function y = ui_not_provided(name : string)
    error(name, ": OpenQuasar does not provide this function of Quasar.UI.dll (forms are headless: nothing is drawn)")
    y = 0
endfunction

function n = ui_connect(h, other)
    n = numel(h.connected)
    grown = cell(n + 1)
    for i = 0..n-1
        grown[i] = h.connected[i]
    endfor
    grown[n] = other
    h.connected = grown
    n = n + 1
endfunction

% display.imshow(x), imshow(x, [lo, hi]), imshow(x, []): the built-in imshow.
% (a number for range: none given; imshow takes no number there)
function h = ui_display_imshow(x, range = -1)
    if isscalar(range)
        imshow(x)
    else
        imshow(x, range)
    endif
    h = ui_image_handle()
endfunction

function h = ui_display_plot(x, y = -1)
    if isscalar(y)
        plot(x)
    else
        plot(x, y)
    endif
    h = ui_image_handle()
endfunction

function n = ui_display_subplot(rows, cols, k)
    subplot(rows, cols, k)
    n = k
endfunction

function d = ui_display()
    d = ui_control("display", "")
    d.imshow = ui_display_imshow
    d.plot = ui_display_plot
    d.subplot = ui_display_subplot
endfunction

% Controls are kept in frm.controls, in the order they were added.
function ctl = ui_form_add(frm, ctl)
    n = numel(frm.controls)
    grown = cell(n + 1)
    for i = 0..n-1
        grown[i] = frm.controls[i]
    endfor
    grown[n] = ctl
    frm.controls = grown
endfunction

% closed() is false on its first call and true after: a `while !frm.closed()` loop runs
% its body once (showing one frame), as if the user closed the form at once.
function c = ui_form_closed(frm)
    c = frm.shown
    frm.shown = true
endfunction

function frm = form(title : string = "")
    frm = object()
    frm.title = title
    frm.width = 800
    frm.height = 600
    frm.controls = cell(0)
    frm.shown = false
    frm.onclose = ui_event()
    frm.add_slider = (label, value, lo, hi) -> ui_form_add(frm, ui_slider(label, value, lo, hi))
    frm.add_checkbox = (label, value) -> ui_form_add(frm, ui_checkbox(label, value))
    frm.add_button = (label) -> ui_form_add(frm, ui_button(label))
    frm.add_heading = (label) -> ui_form_add(frm, ui_heading(label))
    frm.add_display = () -> ui_form_add(frm, ui_display())
    frm.center = () -> 0
    frm.show = () -> 0
    frm.wait = () -> 0
    frm.closed = () -> ui_form_closed(frm)
endfunction
