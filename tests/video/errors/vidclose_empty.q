% EXPECT: 1 vidclose: no frame was written to '.*/n\.mkv' \(the file is removed\)
function [] = main(dir : string = ".")
    out = vidopen(dir + "/n.mkv", "w")
    vidclose(out)
endfunction
