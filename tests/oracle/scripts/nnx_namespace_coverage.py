# covers: presence of the 1.13 torch.nn layer classes and torch.nn.functional functions added for nnx (hasattr on nn / F), issubclass(Module); nn.FractionalMaxPool2d/3d and nn.CTCLoss, F.grid_sample/affine_grid/ctc_loss/fractional_max_pool* and F.assert_int_or_pair
import torch
import torch.nn as nn
import torch.nn.functional as F

classes = ['Conv1d', 'Conv3d', 'ConvTranspose1d', 'ConvTranspose2d', 'ConvTranspose3d', 'BatchNorm3d', 'GroupNorm',
           'InstanceNorm1d', 'InstanceNorm2d', 'InstanceNorm3d', 'LocalResponseNorm', 'MaxPool1d', 'MaxPool3d',
           'AvgPool1d', 'AvgPool3d', 'MaxUnpool1d', 'MaxUnpool2d', 'MaxUnpool3d', 'LPPool1d', 'LPPool2d',
           'AdaptiveAvgPool1d', 'AdaptiveAvgPool3d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d', 'AdaptiveMaxPool3d',
           'ConstantPad1d', 'ConstantPad2d', 'ConstantPad3d', 'ZeroPad2d', 'ReflectionPad1d', 'ReflectionPad2d',
           'ReflectionPad3d', 'ReplicationPad1d', 'ReplicationPad2d', 'ReplicationPad3d', 'PixelShuffle',
           'PixelUnshuffle', 'ChannelShuffle', 'Upsample', 'UpsamplingNearest2d', 'UpsamplingBilinear2d', 'Unflatten',
           'Fold', 'Unfold', 'Threshold', 'RReLU', 'Hardtanh', 'ReLU6', 'Hardsigmoid', 'Hardswish', 'Mish', 'ELU',
           'CELU', 'SELU', 'GLU', 'Hardshrink', 'LogSigmoid', 'Softplus', 'Softshrink', 'PReLU', 'Softsign',
           'Tanhshrink', 'Softmin', 'Softmax2d', 'L1Loss', 'NLLLoss', 'NLLLoss2d', 'PoissonNLLLoss', 'GaussianNLLLoss',
           'KLDivLoss', 'BCELoss', 'BCEWithLogitsLoss', 'HingeEmbeddingLoss', 'MultiLabelMarginLoss', 'SmoothL1Loss',
           'HuberLoss', 'SoftMarginLoss', 'MultiLabelSoftMarginLoss', 'CosineEmbeddingLoss', 'MarginRankingLoss',
           'MultiMarginLoss', 'TripletMarginLoss', 'TripletMarginWithDistanceLoss', 'Dropout1d', 'Dropout2d',
           'Dropout3d', 'AlphaDropout', 'FeatureAlphaDropout', 'EmbeddingBag', 'Bilinear', 'CosineSimilarity',
           'PairwiseDistance']
print(len(classes), [c for c in classes if not hasattr(nn, c)])
print([c for c in classes if not issubclass(getattr(nn, c), nn.Module)])
print(issubclass(nn.ReLU6, nn.Hardtanh), issubclass(nn.ZeroPad2d, nn.ConstantPad2d), issubclass(nn.NLLLoss2d, nn.NLLLoss))
print(issubclass(nn.UpsamplingBilinear2d, nn.Upsample), issubclass(nn.BCELoss, nn.modules.loss._WeightedLoss) if hasattr(nn, 'modules') and hasattr(nn.modules, 'loss') else True)
fns = ['conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d', 'conv_tbc', 'avg_pool1d', 'avg_pool3d',
       'max_pool1d', 'max_pool1d_with_indices', 'max_pool2d_with_indices', 'max_pool3d', 'max_pool3d_with_indices',
       'max_unpool1d', 'max_unpool2d', 'max_unpool3d', 'lp_pool1d', 'lp_pool2d', 'adaptive_avg_pool1d',
       'adaptive_avg_pool3d', 'adaptive_max_pool1d', 'adaptive_max_pool1d_with_indices', 'adaptive_max_pool2d',
       'adaptive_max_pool2d_with_indices', 'adaptive_max_pool3d', 'adaptive_max_pool3d_with_indices', 'alpha_dropout',
       'feature_alpha_dropout', 'dropout1d', 'dropout2d', 'dropout3d', 'threshold', 'threshold_', 'relu_', 'glu',
       'hardtanh_', 'elu_', 'selu', 'selu_', 'celu', 'celu_', 'leaky_relu_', 'prelu', 'rrelu', 'rrelu_', 'hardshrink',
       'tanhshrink', 'softmin', 'softshrink', 'gumbel_softmax', 'bilinear', 'embedding_bag', 'instance_norm',
       'group_norm', 'local_response_norm', 'poisson_nll_loss', 'gaussian_nll_loss', 'kl_div', 'huber_loss',
       'margin_ranking_loss', 'hinge_embedding_loss', 'multilabel_margin_loss', 'soft_margin_loss',
       'multilabel_soft_margin_loss', 'cosine_embedding_loss', 'multi_margin_loss', 'triplet_margin_loss',
       'triplet_margin_with_distance_loss', 'pixel_shuffle', 'pixel_unshuffle', 'channel_shuffle', 'interpolate',
       'upsample', 'upsample_nearest', 'upsample_bilinear', 'pairwise_distance', 'pdist', 'unfold', 'fold',
       'pad', 'normalize', 'one_hot', 'cosine_similarity', 'nll_loss', 'binary_cross_entropy', 'l1_loss',
       'smooth_l1_loss', 'elu', 'hardtanh', 'softplus', 'logsigmoid', 'hardswish', 'hardsigmoid', 'mish', 'softsign']
print(len(fns), [f for f in fns if not hasattr(F, f)])
print(torch.nn.functional is F, nn.functional.interpolate is F.interpolate)
new_classes = ['FractionalMaxPool2d', 'FractionalMaxPool3d', 'CTCLoss']
print([c for c in new_classes if not hasattr(nn, c)], [c for c in new_classes if not issubclass(getattr(nn, c), nn.Module)])
new_fns = ['fractional_max_pool2d', 'fractional_max_pool2d_with_indices', 'fractional_max_pool3d',
           'fractional_max_pool3d_with_indices', 'grid_sample', 'affine_grid', 'ctc_loss', 'assert_int_or_pair']
print([f for f in new_fns if not hasattr(F, f)])
print(F.GRID_SAMPLE_INTERPOLATION_MODES, F.GRID_SAMPLE_PADDING_MODES, F.Tensor is torch.Tensor)
F.assert_int_or_pair((2, 3), 'kernel_size', 'bad {}')
try:
    F.assert_int_or_pair((1, 2, 3), 'kernel_size', '{} must be an int or a pair')
except AssertionError as e:
    print('AssertionError', e)
