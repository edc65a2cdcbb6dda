% EXPECT: 1 vidopen: cannot open 'no_such_video\.mkv': No such file or directory
% A missing video file is named, also where FFmpeg is not installed (checked before loading it).
s = vidopen("no_such_video.mkv")
