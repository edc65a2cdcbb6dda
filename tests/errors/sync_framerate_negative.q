% EXPECT: 1 sync_framerate: the rate must be >= 0 frames per second, not -1
sync_framerate(-1)
