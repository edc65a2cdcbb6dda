% TIFFIO.q: Quasar's native TIFF module: imread and imwrite read and write TIFF files
%   (libtiff) in OpenQuasar.
% import "TIFFIO.dll" loads this file from OpenQuasar's lib/ folder; it defines nothing.
