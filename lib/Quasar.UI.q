% Quasar.UI.q: what OpenQuasar provides of Quasar's native user-interface module.
% import "Quasar.UI.dll" loads this file from OpenQuasar's lib/ folder. OpenQuasar has no
% interactive forms yet: form() stops the program with an error naming the module (its
% sliders, check boxes, buttons and displays are methods of the form it would return).

function frm = form(title = "", a = 0, b = 0)
    error("form: OpenQuasar does not provide this function of Quasar.UI.dll yet")
    frm = 0
endfunction
