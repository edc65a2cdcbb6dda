% Seed 001 (CUDA guide), Device functions: hsv2rgb, called from host code and from a
% kernel, against the textbook HSV -> RGB conversion (chroma C = v s, X = C (1 - |h6 mod 2
% - 1|), m = v - C), scaled to 0..255.

function y = __device__ hsv2rgb (c : vec3)
    h = int(c[0] * 6.0)
    f = frac(c[0] * 6.0)
    v = 255.0 * c[2]    
    p = v * (1 - c[1])
    q = v * (1 - f * c[1])
    t = v * (1 - (1 - f) * c[1])
    match h with
    | 0 -> y = [v, t, p]
    | 1 -> y = [q, v, p]
    | 2 -> y = [p, v, t]
    | 3 -> y = [p, q, v]
    | 4 -> y = [t, p, v]
    | _ -> y = [v, p, q]
    endmatch
endfunction

% ---- test driver ----
function rgb = textbook(hue, sat, val)
    h6 = hue * 6
    C = val * sat
    X = C * (1 - abs(mod(h6, 2) - 1))
    m = val - C
    sector = floor(h6)
    if sector == 0
        r = [C, X, 0]
    elseif sector == 1
        r = [X, C, 0]
    elseif sector == 2
        r = [0, C, X]
    elseif sector == 3
        r = [0, X, C]
    elseif sector == 4
        r = [X, 0, C]
    else
        r = [C, 0, X]
    endif
    rgb = (r + m) * 255
endfunction

function [] = __kernel__ convert(hsv : mat, rgb : mat, pos : int)
    rgb[pos, 0..2] = hsv2rgb([hsv[pos, 0], hsv[pos, 1], hsv[pos, 2]])
endfunction

% primary colours exactly
red = hsv2rgb([0.0, 1.0, 1.0])
assert(red[0] == 255 && red[1] == 0 && red[2] == 0)
cyan = hsv2rgb([0.5, 0.5, 1.0])
assert(cyan[0] == 127.5 && cyan[1] == 255 && cyan[2] == 255)
c2 = hsv2rgb([0.25, 1.0, 1.0])
assert(c2[0] == 127.5 && c2[1] == 255 && c2[2] == 0)

% a grid of colours, on the host and in a kernel
n = 0
hsv = zeros(60, 3)
for i = 0..19
    for j = 0..2
        hsv[n, 0] = (i + 0.5) / 20            % every sector, away from the sector edges
        hsv[n, 1] = 0.25 + 0.25 * j
        hsv[n, 2] = 1 - 0.2 * j
        n += 1
    endfor
endfor
rgb = ones(60, 3) * -1
parallel_do(60, hsv, rgb, convert)
for r = 0..59
    want = textbook(hsv[r, 0], hsv[r, 1], hsv[r, 2])
    host = hsv2rgb([hsv[r, 0], hsv[r, 1], hsv[r, 2]])
    for ch = 0..2
        assert(abs(host[ch] - want[ch]) < 1e-2)
        assert(abs(rgb[r, ch] - want[ch]) < 1e-2)
    endfor
endfor
print "hsv2rgb_001: ok"
