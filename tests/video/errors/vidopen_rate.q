% EXPECT: 1 vidopen: the frame rate must be > 0, not 0
function [] = main(dir : string = ".")
    out = vidopen(dir + "/r.mkv", "w", 0)
endfunction
