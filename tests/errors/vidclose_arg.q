% EXPECT: 1 vidclose: expected a video stream from vidopen, not string
vidclose("clip.mkv")
