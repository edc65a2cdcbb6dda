% colortransform.q: Quasar's colour transform module: rgb2lab and the other colour
%   transforms are not provided yet.
% import "colortransform.q" finds this file in OpenQuasar's lib/ folder, so published
%   programs that
% import it run unchanged; it defines nothing of its own yet.
