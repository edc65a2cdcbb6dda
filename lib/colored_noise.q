% colored_noise.q: coloured (correlated) Gaussian noise, shipped with OpenQuasar.
% import "colored_noise.q" finds this file in OpenQuasar's lib/ folder.
%
%   y = colored_noise(sz, h, ctr)    white Gaussian noise of size sz (randn(sz)) correlated
%                                    with the mask h, periodically: imfilter(randn(sz), h,
%                                    ctr, "circular"). Its power spectrum is |H(f)|^2, its
%                                    variance sum(h.^2), its autocorrelation at lag d the
%                                    sum of h[k] h[k + d].
%   y = colored_noise_gaussian(sz, sigma)  noise of unit variance whose correlation falls
%                                    off as a Gaussian: h is the 2-D Gaussian of standard
%                                    deviation sigma / sqrt(2), normalized to sum(h.^2) = 1,
%                                    so the autocorrelation is exp(-|d|^2 / (2 sigma^2))
%                                    (up to the taps' truncation at 3 sigma).
%
% Built in the spatial domain (a correlation with h, no FFT), so the cost grows with the
% mask's size. sz is [rows, cols] or [rows, cols, channels] (each channel independent).
import "imfilter.q"

function y = colored_noise(sz, h, ctr = -1)
    if numel(sz) < 1 || numel(sz) > 3
        error("colored_noise: the size must have one to three elements, not ", sz)
    endif
    y = imfilter(randn(sz), h, ctr, "circular")
endfunction

function y = colored_noise_gaussian(sz, sigma)
    if !(sigma > 0)
        error("colored_noise_gaussian: sigma must be positive, not ", sigma)
    endif
    if numel(sz) < 1 || numel(sz) > 3
        error("colored_noise_gaussian: the size must have one to three elements, not ", sz)
    endif
    g = gaussian_taps(sigma / sqrt(2), 2 * int(ceil(3 * sigma)) + 1)
    g = g / sqrt(sum(g .^ 2))
    c = int(floor(numel(g) / 2))
    y = separable_filter(randn(sz), g, c, g, c, 2)
endfunction
