% EXPECT: 1 vidopen: cannot write '.*/x\.qqq': no container format for its extension
function [] = main(dir : string = ".")
    out = vidopen(dir + "/x.qqq", "w")
endfunction
