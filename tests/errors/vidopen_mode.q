% EXPECT: 1 vidopen: the mode is "r" or "w", not "a"
s = vidopen("clip.mkv", "a")
