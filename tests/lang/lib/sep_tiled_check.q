% The check of lib_imfilter_tiled_sep*.q: separable_tiled with T taps on the five test
% images (lib/filter_ref.q) against the correlation with the taps' outer product; the
% number of cases.
import "filter_ref.q"

function outer = outer_product(a, b)
    outer = zeros(numel(a), numel(b))
    for m = 0..numel(a)-1
        for n = 0..numel(b)-1
            outer[m, n] = a[m] * b[n]
        endfor
    endfor
endfunction

function cases = check_sep_tiled(T, s)
    cases = 0
    gy = zeros(T)
    gx = zeros(T)
    for n = 0..T-1
        gy[n] = mod((n + 1) * 0.382, 1) - 0.3
        gx[n] = mod((n + 2) * 0.707, 1) - 0.45
    endfor
    for v = 0..4
        x = as_rows(image_nr(v))
        cy = mod(s + v, T)
        cx = T - 1 - mod(s * 2 + v, T)
        rule = rule_name(mod(s + v * 2, 6))
        ref = reference_correlate(x, outer_product(gy, gx), cy, cx, rule)
        [y, done] = separable_tiled(x, gy, cy, gx, cx, boundary_mode(rule, "test"))
        assert(done)
        assert(max_diff(y, ref) < 1e-4)
        cases += 1
    endfor
endfunction
