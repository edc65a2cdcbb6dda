% imshow without a window (tests/examples/run.sh runs it with --show-dir or $OQ_SHOW_DIR):
% each image is a PNG, lo..hi stretched to 0..255; hold("on") overwrites the last file.
x = zeros(4, 6)
for m = 0..3
    for n = 0..5
        x[m, n] = m * 6 + n          % 0..23
    endfor
endfor
imshow(x * 10)                       % 1: as it is (0..230)
imshow(x, [])                        % 2: 0..23 stretched to 0..255
imshow(x, [0, 46])                   % 3: 0..23 to 0..127.5
title("a colour image")
c = zeros(4, 6, 3)
c[:, :, 1] = x * 10
imshow(c)                            % 4
hold("on")
imshow(c * 0.5)                      % 4 again, overwritten
hold("off")
imshow(255 - x * 10)                 % 5
