% Quasar.Video.q: what OpenQuasar provides of Quasar's native video module.
% import "Quasar.Video.dll" loads this file from OpenQuasar's lib/ folder. The functions are
% built into oq (src/runtime/rt_video.c, on FFmpeg loaded at run time): vidopen,
% vidreadframe, vidseek, vidwrite, vidclose, and sync_framerate (src/runtime/rt_show.c);
% stream.rgb_data, stream.avg_frame_rate, stream.width, stream.height, ... are fields of the
% stream vidopen returns. docs/library.md, "Video, plots and other formats", describes them.
