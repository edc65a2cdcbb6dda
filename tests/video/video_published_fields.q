% The stream fields published tone-mapping tools read (QUASAR-NOTES.md, "What published
% programs rely on"): stream.frame_width, frame_height, duration_sec and pts, beside
% OpenQuasar's width, height, duration and time; the published playback loop
% `position.value = stream.pts * stream.avg_frame_rate` counts frames.
import "Quasar.Video.dll"
import "Quasar.UI.dll"

function [] = main(dir : string = ".")
    h = 10; w = 14; n = 6; fps = 5
    file = dir + "/published_fields.mkv"
    out = vidopen(file, "w", fps, "ffv1")
    for k = 0..n-1
        vidwrite(out, ones(h, w, 3) * (k * 20))
    endfor
    vidclose(out)
    stream = vidopen(file)
    s_width = stream.frame_width
    s_height = stream.frame_height
    assert(s_width == stream.width && s_width == w)
    assert(s_height == stream.height && s_height == h)
    assert(stream.duration_sec == stream.duration)
    frm = form("Video Player")
    position = frm.add_slider("Position", 0, 0, floor(stream.duration_sec * stream.avg_frame_rate))
    k = 0
    while vidreadframe(stream)
        assert(stream.pts == stream.time)
        position.value = stream.pts * stream.avg_frame_rate
        assert(abs(position.value - k) < 1e-3)
        k += 1
    endwhile
    assert(k == n)
    print "video_published_fields: ok"
endfunction
