% imresize.q: Quasar's image resizing module: imresize is not provided yet.
% import "imresize.q" finds this file in OpenQuasar's lib/ folder, so published programs
%   that
% import it run unchanged; it defines nothing of its own yet.
