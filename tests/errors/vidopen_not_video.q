% EXPECT: 1 vidopen: cannot (open 'tests/errors/vidopen_not_video\.q': Invalid data found|load libav[a-z]+\.so\.[0-9]+)
% A file that is no video (this program) is refused with FFmpeg's reason; where FFmpeg is
% missing (the GPU machine) the error names the library instead.
s = vidopen("tests/errors/vidopen_not_video.q")
