% CHECK: parse-only (uses vidopen/vidreadframe/sync_framerate, which OpenQuasar does not implement yet)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 807-814: showing a video
stream = vidopen("movie.mp4")
sync_framerate(stream.avg_frame_rate)  % Sets the display frame rate

hold("on")
while vidreadframe(stream)
    frame = float(stream.rgb_data)
    imshow(frame)
endwhile
