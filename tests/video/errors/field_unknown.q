% EXPECT: 1 a video stream has no field 'fps' \(rgb_data, avg_frame_rate, width, height
function [] = main(dir : string = ".")
    out = vidopen(dir + "/e.mkv", "w", 25, "ffv1")
    vidwrite(out, zeros(4, 6, 3))
    vidclose(out)
    s = vidopen(dir + "/e.mkv")
    r = s.fps
endfunction
