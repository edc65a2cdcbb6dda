% Quasar.UI.dll headless: a form's display shows like the built-ins (lib/Quasar.UI.q):
% disp.imshow(x, [lo, hi]) writes <prog>_imshowN.png as imshow does, disp.subplot and
% disp.plot draw a subplot figure; the files are read back and compared with the stretch
% computed here, and with what the built-in imshow wrote for the same image. The built-in
% returns a handle whose connect() links nothing (published: fig0.connect(fig1)).
import "Quasar.UI.dll"

function [] = main(dir : string = ".")
    x = zeros(6, 8)
    for i = 0..5
        for j = 0..7
            x[i, j] = (i * 8 + j) / 47
        endfor
    endfor
    fig0 = imshow(x, [0, 1])                 % file 1: the built-in; it returns a figure handle
    frm = form("Example Smoothing")
    frm.width = 1024
    frm.height = 500
    disp = frm.add_display()
    h1 = disp.imshow(x, [0, 1])              % file 2: the display
    h2 = disp.imshow(x * 255)                % file 3: no range: 0..255 as they are
    h1.connect(h2)
    fig0.connect(h1)                         % published: fig0 = imshow(...); fig0.connect(fig1)
    connect(fig0, h2)
    a = imread(dir + "/ui_display_imshow1.png")
    b = imread(dir + "/ui_display_imshow2.png")
    c = imread(dir + "/ui_display_imshow3.png")
    assert(size(b, 0) == 6 && size(b, 1) == 8)
    for i = 0..5
        for j = 0..7
            want = floor(x[i, j] * 255 + 0.5)
            assert(abs(b[i, j, 0] - want) <= 1 && b[i, j, 0] == a[i, j, 0])
            assert(c[i, j, 0] == b[i, j, 0])
        endfor
    endfor
    disp.subplot(1, 2, 0)
    disp.imshow(x, [0, 1])
    disp.subplot(1, 2, 1)
    disp.plot(0..9, (0..9).^2)
    s = imread(dir + "/ui_display_subplot4.png")
    assert(size(s, 0) == 240 && size(s, 1) == 640)
    print "ui_display: ok"
endfunction
