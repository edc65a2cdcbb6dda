% EXPECT: 1 vidwrite: a frame has 1, 3 or 4 channels, not 2
function [] = main(dir : string = ".")
    out = vidopen(dir + "/c.mkv", "w", 25, "ffv1")
    vidwrite(out, zeros(4, 6, 2))
endfunction
