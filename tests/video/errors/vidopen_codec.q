% EXPECT: 1 vidopen: libavcodec has no encoder 'no_such_codec'
function [] = main(dir : string = ".")
    out = vidopen(dir + "/k.mkv", "w", 25, "no_such_codec")
endfunction
