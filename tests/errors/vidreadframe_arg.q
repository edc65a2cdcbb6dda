% EXPECT: 1 vidreadframe: expected a video stream from vidopen, not int
ok = vidreadframe(3)
