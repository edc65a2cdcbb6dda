% lib/imfilter.q's fixed-size separable kernels of 3, 5 and 7 taps against plain host loops
% (lib/filter_ref.q): taps gy down the columns and gx along the rows, different and
% asymmetric (a swapped pair would show), centres anywhere in them, every boundary rule,
% images of 1, 2 and 3 channels whose sizes are no multiple of 8 rows or 64 columns. The
% general separable kernel is a second reference.
import "lib/filter_ref.q"

nimages = 5
cases = 0

% separable: taps gy down the columns and gx along the rows (different, asymmetric), for
% every odd length; the reference is the correlation with their outer product
function outer = outer_product(a, b)
    outer = zeros(numel(a), numel(b))
    for m = 0..numel(a)-1
        for n = 0..numel(b)-1
            outer[m, n] = a[m] * b[n]
        endfor
    endfor
endfunction
for s = 0..2
    T = 3 + 2 * s
    gy = zeros(T)
    gx = zeros(T)
    for n = 0..T-1
        gy[n] = mod((n + 1) * 0.382, 1) - 0.3
        gx[n] = mod((n + 2) * 0.707, 1) - 0.45
    endfor
    for v = 0..nimages-1
        x = as_rows(image_nr(v))
        cy = mod(s + v, T)
        cx = T - 1 - mod(s * 2 + v, T)
        rule = rule_name(mod(s + v * 2, 6))
        ref = reference_correlate(x, outer_product(gy, gx), cy, cx, rule)
        [y, done] = separable_fixed(x, gy, cy, gx, cx, boundary_mode(rule, "test"))
        assert(done)
        assert(max_diff(y, ref) < 1e-4)
        g = uninit(size(x))
        parallel_do([ceil(size(x, 0) / 8), size(x, 1), size(x, 2)], x, g, gy, cy, gx, cx, _
                    size(x, 0), size(x, 1), boundary_mode(rule, "test"), separable_kernel)
        assert(max_diff(g, ref) < 1e-4)
        cases += 1
    endfor
endfor

print "lib_imfilter_separable: ", cases, " cases ok"
