% EXPECT: 1 stream\.rgb_data: no frame has been read from '.*/e\.mkv' yet
function [] = main(dir : string = ".")
    out = vidopen(dir + "/e.mkv", "w", 25, "ffv1")
    vidwrite(out, zeros(4, 6, 3))
    vidclose(out)
    s = vidopen(dir + "/e.mkv")
    f = s.rgb_data
endfunction
