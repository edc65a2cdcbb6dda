% tests/video/run.sh: `unclosed.q DIR` writes DIR/unclosed.mkv inside a function without
% vidclose; the end of the program finishes the file. `unclosed.q DIR read` reads it back.
function [] = write_some(file)
    out = vidopen(file, "w", 25, "ffv1")
    for k = 0..4
        vidwrite(out, ones(8, 10, 3) * (k * 50))
    endfor
endfunction

function [] = main(dir : string = ".", mode : string = "write")
    if mode == "write"
        write_some(dir + "/unclosed.mkv")
        empty = vidopen(dir + "/empty.mkv", "w")   % no frame: no file at the end
    else
        s = vidopen(dir + "/unclosed.mkv")
        n = 0
        while vidreadframe(s)
            assert(max(abs(s.rgb_data - n * 50)) == 0)
            n += 1
        endwhile
        assert(n == 5)
        print "unclosed: ok"
    endif
endfunction
