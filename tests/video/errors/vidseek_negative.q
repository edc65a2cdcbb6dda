% EXPECT: 1 vidseek: the time must be a number of seconds >= 0, not -1
function [] = main(dir : string = ".")
    out = vidopen(dir + "/e.mkv", "w", 25, "ffv1")
    vidwrite(out, zeros(4, 6, 3))
    vidclose(out)
    s = vidopen(dir + "/e.mkv")
    vidseek(s, -1)
endfunction
