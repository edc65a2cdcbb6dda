% The container's default codec (H.264 in .mp4, MPEG-4 in .avi where FFmpeg has them) is
% lossy: a smooth synthetic clip comes back within a mean absolute error of 4 (of 255) per
% sample, and its frame count and rate are exact.
function f = synth(k, h, w)
    f = zeros(h, w, 3)
    for y = 0..h-1
        for x = 0..w-1
            f[y, x, 0] = 128 + 100 * sin((x + 2 * k) / 9)
            f[y, x, 1] = 128 + 90 * cos((y - k) / 7)
            f[y, x, 2] = 40 + 3 * (x + y)
        endfor
    endfor
endfunction

function [] = lossy(file, fps)
    h = 32; w = 48; n = 8
    out = vidopen(file, "w", fps)
    for k = 0..n-1
        vidwrite(out, synth(k, h, w))
    endfor
    vidclose(out)
    s = vidopen(file)
    assert(abs(s.avg_frame_rate - fps) < 1e-3)
    k = 0
    while vidreadframe(s)
        err = sum(abs(s.rgb_data - synth(k, h, w))) / (h * w * 3)
        assert(err < 4, sprintf("%s frame %d: mean error %f", file, k, err))
        k += 1
    endwhile
    assert(k == n)
endfunction

function [] = main(dir : string = ".")
    lossy(dir + "/default.mp4", 24)
    lossy(dir + "/default.avi", 15)
    print "video_lossy: ok"
endfunction
