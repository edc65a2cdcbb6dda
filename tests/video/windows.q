% tests/video/run.sh, under Xvfb only (`windows.q DIR show`): plot, subplot and a video shown
% in windows: no file is written (run.sh checks), sync_framerate paces the frames (6 frames
% at 10 per second take at least 500 ms), pause waits while windows stay open.
function [] = main(dir : string = ".", mode : string = "write")
    if mode == "write"
        out = vidopen(dir + "/win.mkv", "w", 50, "ffv1")
        for k = 0..5
            vidwrite(out, ones(6, 8, 3) * (k * 40))
        endfor
        vidclose(out)
        return
    endif
    plot(0..10, 0..10)
    hold("on")
    plot(0..10, 10..-1..0, "r")
    hold("off")
    subplot(1, 2, 0)
    imshow(ones(60, 80) * 128)
    subplot(1, 2, 1)
    plot([1, 3, 2])
    stream = vidopen(dir + "/win.mkv")
    sync_framerate(10)
    hold("on")
    tic()
    n = 0
    while vidreadframe(stream)
        imshow(stream.rgb_data)
        n += 1
    endwhile
    assert(n == 6 && toc() >= 500)
    tic()
    pause(100)
    assert(toc() >= 99)
endfunction
