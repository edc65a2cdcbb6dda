% A video shown as seed 001 shows one (hold("on"), sync_framerate, imshow of each frame):
% without a display each imshow rewrites one PNG, which holds the last frame.
function [] = main(dir : string = ".")
    out = vidopen(dir + "/show.mkv", "w", 50, "ffv1")
    for k = 0..5
        vidwrite(out, ones(6, 8, 3) * (k * 40))
    endfor
    vidclose(out)
    stream = vidopen(dir + "/show.mkv")
    sync_framerate(stream.avg_frame_rate)
    hold("on")
    n = 0
    while vidreadframe(stream)
        frame = float(stream.rgb_data)
        imshow(frame)
        n += 1
    endwhile
    hold("off")
    assert(n == 6)
    last = imread(dir + "/video_show_imshow1.png")
    assert(size(last, 0) == 6 && size(last, 1) == 8)
    assert(max(abs(last - 200)) == 0)
    print "video_show: ok"
endfunction
