% EXPECT: 1 vidwrite: the frame is 4 x 5 but '.*/s\.mkv' has frames of 4 x 6
function [] = main(dir : string = ".")
    out = vidopen(dir + "/s.mkv", "w", 25, "ffv1")
    vidwrite(out, zeros(4, 6, 3))
    vidwrite(out, zeros(4, 5, 3))
endfunction
