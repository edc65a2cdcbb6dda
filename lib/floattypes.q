% floattypes.q: Quasar's floating-point types module: scalar, cscalar, vec/mat/cube, vecN
%   and float() are built into OpenQuasar.
% import "floattypes.q" finds this file in OpenQuasar's lib/ folder, so published programs
%   that
% import it run unchanged; it defines nothing of its own yet.
