% tests/video/run.sh: `truncated.q DIR` writes DIR/whole.mkv; `truncated.q DIR read` reads
% DIR/cut.mkv (the clip cut short) to its end: it must end, or stop with an error, not crash.
function [] = main(dir : string = ".", mode : string = "write")
    if mode == "write"
        out = vidopen(dir + "/whole.mkv", "w", 25, "ffv1")
        for k = 0..19
            f = zeros(16, 16, 3)
            for i = 0..numel(f)-1
                f[i] = mod(i * 17 + k * 5, 256)
            endfor
            vidwrite(out, f)
        endfor
        vidclose(out)
    else
        s = vidopen(dir + "/cut.mkv")
        n = 0
        while vidreadframe(s)
            n += 1
        endwhile
        print n
    endif
endfunction
