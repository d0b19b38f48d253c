#pragma once
// Left out of the tileapply test corpus (more N sizes of the same wgmma forms).
