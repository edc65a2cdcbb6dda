% EXPECT: 1 vidopen: OpenQuasar does not provide this function of Quasar\.Video\.dll
% A function of a native module that OpenQuasar does not provide yet stops the program with an
% error naming the module (lib/Quasar.Video.q), not an unknown-name error.
import "Quasar.Video.dll"

stream = vidopen("movie.mkv")
