% Synthetic frames written with a lossless codec (ffv1 in .mkv and .avi, rawvideo in .nut)
% come back exactly: frame count, size, frame rate, each frame's time and pixels; vidseek
% gives the first frame at or after the time; a frame the program keeps is not overwritten.
function v = pixel(k, y, x, c)
    v = mod(x * 7 + y * 3 * c + k * 13 + c * 50, 256)
endfunction

function f = synth(k, h, w)
    f = zeros(h, w, 3)
    for y = 0..h-1
        for x = 0..w-1
            for c = 0..2
                f[y, x, c] = pixel(k, y, x, c)
            endfor
        endfor
    endfor
endfunction

function ok = same(f, k)
    ok = max(abs(f - synth(k, size(f, 0), size(f, 1)))) == 0
endfunction

function [] = roundtrip(file, codec, fps)
    h = 18; w = 22; n = 12
    out = vidopen(file, "w", fps, codec)
    for k = 0..n-1
        vidwrite(out, synth(k, h, w))
    endfor
    assert(out.frame_count == n && out.width == w && out.height == h)
    vidclose(out)
    vidclose(out)                  % a second close does nothing
    s = vidopen(file)
    assert(s.width == w && s.height == h)
    assert(abs(s.avg_frame_rate - fps) < 1e-3)
    k = 0
    prev = 0
    while vidreadframe(s)
        f = s.rgb_data
        assert(size(f, 0) == h && size(f, 1) == w && size(f, 2) == 3)
        assert(same(f, k))
        assert(abs(s.time - k / fps) < 1e-3)
        assert(s.frame_index == k)
        if k > 0
            assert(same(prev, k - 1))   % kept, not overwritten by this frame
        endif
        prev = f
        k += 1
    endwhile
    assert(k == n)
    assert(!vidreadframe(s))           % stays at the end
    vidseek(s, 5 / fps)
    assert(vidreadframe(s))
    assert(same(s.rgb_data, 5))
    vidseek(s, 7.5 / fps)             % between frames 7 and 8: frame 8
    assert(vidreadframe(s))
    assert(same(s.rgb_data, 8))
    vidseek(s, 0)
    m = 0
    while vidreadframe(s)
        m += 1
    endwhile
    assert(m == n)
    vidclose(s)
endfunction

function [] = main(dir : string = ".")
    roundtrip(dir + "/ffv1.mkv", "ffv1", 25)
    roundtrip(dir + "/ffv1.avi", "ffv1", 10)
    roundtrip(dir + "/raw.nut", "rawvideo", 30)
    % gray frames (matrices) come back as R = G = B
    out = vidopen(dir + "/gray.mkv", "w", 5, "ffv1")
    g = zeros(8, 10)
    for i = 0..numel(g)-1
        g[i] = mod(i * 37, 256)
    endfor
    vidwrite(out, g)
    vidclose(out)
    s = vidopen(dir + "/gray.mkv")
    assert(vidreadframe(s))
    f = s.rgb_data
    for c = 0..2
        assert(max(abs(f[:, :, c] - g)) == 0)
    endfor
    assert(!vidreadframe(s))
    print "video_roundtrip: ok"
endfunction
