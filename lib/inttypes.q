% inttypes.q: Quasar's integer types module: int, int8, uint8, int16, uint16, int32,
%   uint32, int64 and the ivecN types are built into OpenQuasar.
% import "inttypes.q" finds this file in OpenQuasar's lib/ folder, so published programs
%   that
% import it run unchanged; it defines nothing of its own yet.
