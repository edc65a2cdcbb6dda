% Quasar.Video.q: what OpenQuasar provides of Quasar's native video module.
% import "Quasar.Video.dll" loads this file from OpenQuasar's lib/ folder. OpenQuasar has no
% video decoder yet: each function below stops the program with an error naming the module,
% instead of an unknown-name error far from the import.

function [] = video_missing(name : string)
    error(name, ": OpenQuasar does not provide this function of Quasar.Video.dll yet")
endfunction

function stream = vidopen(file, a = 0, b = 0)
    video_missing("vidopen")
    stream = 0
endfunction

function ok = vidreadframe(stream)
    video_missing("vidreadframe")
    ok = false
endfunction

function [] = vidseek(stream, seconds)
    video_missing("vidseek")
endfunction

function [] = vidclose(stream)
    video_missing("vidclose")
endfunction

function [] = sync_framerate(rate)
    video_missing("sync_framerate")
endfunction
