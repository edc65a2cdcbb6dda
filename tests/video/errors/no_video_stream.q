% EXPECT: 1 vidopen: '.*/audio\.wav' has no video stream that libavcodec can decode
% tests/video/run.sh writes DIR/audio.wav (PCM sound, no picture) before the error tests.
function [] = main(dir : string = ".")
    s = vidopen(dir + "/audio.wav")
endfunction
