% EXPECT: 1 vidreadframe: the stream of '.*/e\.mkv' is closed
function [] = main(dir : string = ".")
    out = vidopen(dir + "/e.mkv", "w", 25, "ffv1")
    vidwrite(out, zeros(4, 6, 3))
    vidclose(out)
    s = vidopen(dir + "/e.mkv")
    vidclose(s)
    ok = vidreadframe(s)
endfunction
